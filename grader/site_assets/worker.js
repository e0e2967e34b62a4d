// Runs a submission on cases in Pyodide, with the grader's own comparison (grader/browser.py).
// The page terminates this worker when a case exceeds its time limit.
importScripts(PYODIDE_URL + "pyodide.js");
const FILES = ["__init__.py", "_compat.py", "errors.py", "text.py", "records.py", "compare.py",
               "browser.py"];
let py = null;
async function boot() {
  py = await loadPyodide({ indexURL: PYODIDE_URL });
  py.FS.mkdirTree("/grade/grader");
  for (const name of FILES) {
    const response = await fetch("py/grader/" + name);
    py.FS.writeFile("/grade/grader/" + name, await response.text());
  }
  py.runPython("import sys; sys.path.insert(0, '/grade'); from grader.browser import run_case");
}
const ready = boot();
onmessage = async (event) => {
  const { source, cases, method, options, cap } = event.data;
  try {
    await ready;
  } catch (error) {
    postMessage({ kind: "error", message: "Python did not load: " + error });
    return;
  }
  try {
    await py.loadPackagesFromImports(source);  // numpy, where the Pyodide URL serves it
  } catch (error) { /* the import itself will say what is missing */ }
  const run = py.globals.get("run_case");
  for (let i = 0; i < cases.length; i++) {
    postMessage({ kind: "start", index: i });
    const started = performance.now();
    const found = run(source, cases[i].input, cases[i].expected, method,
                      py.toPy(options), cap);
    const result = found.toJs({ dict_converter: Object.fromEntries });
    found.destroy();
    result.time_s = (performance.now() - started) / 1000;
    postMessage({ kind: "done", index: i, result });
  }
  postMessage({ kind: "finished" });
};
