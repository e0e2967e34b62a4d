// Runs a submission on cases in Pyodide, judged by the grader's own Python: its judging package,
// copied whole into py/judging/ (its modules listed in py/files.json). The page terminates this
// worker when a case exceeds its time limit. It tells the page what happened on the port the
// page sent with the cases, held in this function's scope only: the student's code, which runs
// here, can post to the page's worker object but never on that port.
importScripts(PYODIDE_URL + "pyodide.js");
// taken before any student code runs here: it could replace the prototype's method later
const send = MessagePort.prototype.postMessage;
let py = null;
async function boot() {
  py = await loadPyodide({ indexURL: PYODIDE_URL });
  const files = await (await fetch("py/files.json")).json();
  py.FS.mkdirTree("/grade/judging");
  for (const name of files) {
    const response = await fetch("py/judging/" + name);
    py.FS.writeFile("/grade/judging/" + name, await response.text());
  }
  py.runPython("import sys; sys.path.insert(0, '/grade'); " +
               "from judging.browser import run_case, stopped_case");
}
const ready = boot();
// The page's "Python ready": said before any student code runs here, on the worker's own channel
ready.then(() => postMessage({ kind: "ready" }),
           (error) => postMessage({ kind: "failed", message: String(error) }));
onmessage = async (event) => {
  const { source, cases, exercise, earlier } = event.data;
  const placed = [...earlier];  // each result's "group" so far: how the next ones are grouped
  const port = event.ports[0];
  const tell = (message) => send.call(port, message);
  try {
    await ready;
  } catch (error) {
    tell({ kind: "error", message: "Python did not load: " + error });
    return;
  }
  for (const code of [source, exercise.checker || ""]) {
    try {
      await py.loadPackagesFromImports(code);  // numpy, where the Pyodide URL serves it
    } catch (error) { /* the import itself will say what is missing */ }
  }
  const run = py.globals.get("run_case");
  const stopped = py.globals.get("stopped_case");
  const about = py.toPy(exercise);
  const js = (found) => {
    const value = found.toJs({ dict_converter: Object.fromEntries });
    found.destroy();
    return value;
  };
  for (let i = 0; i < cases.length; i++) {
    // file descriptor 0 too (open(0).read()), not only sys.stdin: the case's input, then EOF
    let given = cases[i].input === "";
    py.setStdin({ stdin: () => { if (given) return null; given = true; return cases[i].input; } });
    const testcase = py.toPy(cases[i]);
    const above = py.toPy(placed);
    let result;
    let ifStopped = null;  // what the page shows if it ends this worker on this case
    try {
      ifStopped = js(stopped(testcase, about, above));
    } catch (error) { /* the page says a time-out then without the grader's grouping */ }
    tell({ kind: "start", index: i, stopped: ifStopped });
    try {
      result = js(run(source, testcase, about, () => tell({ kind: "checking", index: i }), above));
      placed.push(result.group);
    } catch (error) {  // the page's own Python failed: never the student's verdict
      result = { status: "grader_error", message: "the page's grader failed: " + error };
    }
    testcase.destroy();
    above.destroy();
    tell({ kind: "done", index: i, result });
  }
  tell({ kind: "finished" });
};
