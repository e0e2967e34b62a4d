// The student's worker: runs a submission on cases' inputs in Pyodide and reports each raw run
// (exit status, streams, the one over the cap) to the page; it never judges. The judge is a
// worker of its own (judge.js), where no student code runs: a program can rebind anything of
// the interpreter it runs in, so verdicts, the checker and its clock must not live here. The
// page terminates this worker when a case exceeds its time limit. It speaks on the port the
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
               "from judging.browser import execute_raw");
}
const ready = boot();
// The page's "Python ready": said before any student code runs here, on the worker's own channel
ready.then(() => postMessage({ kind: "ready" }),
           (error) => postMessage({ kind: "failed", message: String(error) }));
onmessage = async (event) => {
  const { source, inputs, cap } = event.data;
  const port = event.ports[0];
  const tell = (message) => send.call(port, message);
  try {
    await ready;
  } catch (error) {
    tell({ kind: "error", message: "Python did not load: " + error });
    return;
  }
  try {
    await py.loadPackagesFromImports(source);  // numpy, where the Pyodide URL serves it
  } catch (error) { /* the import itself will say what is missing */ }
  const execute = py.globals.get("execute_raw");
  for (let i = 0; i < inputs.length; i++) {
    // file descriptor 0 too (open(0).read()), not only sys.stdin: the case's input, then EOF
    let given = inputs[i] === "";
    py.setStdin({ stdin: () => { if (given) return null; given = true; return inputs[i]; } });
    tell({ kind: "start", index: i });
    let raw = null;  // the judge reads a report it cannot read as the program's crash
    try {
      const found = execute(source, inputs[i], cap);
      raw = found.toJs({ dict_converter: Object.fromEntries });
      found.destroy();
    } catch (error) { /* the program broke execute_raw itself: its own doing */ }
    tell({ kind: "ran", index: i, raw });
  }
  tell({ kind: "finished" });
};
