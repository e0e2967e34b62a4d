// The student's worker: runs a submission on cases' inputs in Pyodide and reports each raw run
// (exit status, streams, the one over the cap) to the page; it never judges, and it holds no
// clock. The judge is a worker of its own (judge.js), where no student code runs: a program can
// rebind anything of the interpreter it runs in, so verdicts, the checker and its clock must
// not live here. The page sends one case at a time, starts the case's clock as it sends it, and
// terminates this worker at the deadline whatever it hears: what this worker says is data.
importScripts(PYODIDE_URL + "pyodide.js");
// Taken at load, before any student code runs here: a program can replace any global or any
// prototype's method later (it once replaced Function.prototype.call and so was handed the
// page's port), and what is looked up at call time would then be its own.
const apply = Reflect.apply;
const send = MessagePort.prototype.postMessage;
const defineProperty = Object.defineProperty;
const prototypeOf = Object.getPrototypeOf;
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

// Once Python and the program's packages are loaded, and before the program runs: nothing here
// reaches past this worker any more. The site's files are the same origin's (the exercise's
// cases among them), and a program that read its case's expected output and printed it would
// "pass" having computed nothing; nested workers, sockets and caches go too.
const OUTSIDE = ["fetch", "XMLHttpRequest", "importScripts", "Worker", "SharedWorker",
                 "WebSocket", "WebSocketStream", "EventSource", "WebTransport", "caches",
                 "BroadcastChannel", "indexedDB"];
function cutOff() {
  for (const name of OUTSIDE) {
    for (let holder = self; holder !== null; holder = prototypeOf(holder)) {
      delete holder[name];
    }
    defineProperty(self, name, { value: undefined, writable: false, configurable: false });
  }
}

// The page's first message: the program and the port the page hears (and sends the cases) on.
// Each later one, on that port, is one case: its index and input, nothing of what it expects.
onmessage = async (event) => {
  onmessage = null;  // one program per worker: the page starts another for the next Grade
  const { source, cap } = event.data;
  const port = event.ports[0];
  const tell = (message) => apply(send, port, [message]);
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
  cutOff();
  port.onmessage = (asked) => {
    const { index, input } = asked.data;
    // file descriptor 0 too (open(0).read()), not only sys.stdin: the case's input, then EOF
    let given = input === "";
    py.setStdin({ stdin: () => { if (given) return null; given = true; return input; } });
    let raw = null;  // the judge reads a report it cannot read as the program's crash
    try {
      const found = execute(source, input, cap);
      raw = found.toJs({ dict_converter: Object.fromEntries });
      found.destroy();
    } catch (error) { /* the program broke execute_raw itself: its own doing */ }
    try {
      tell({ kind: "ran", index, raw });
    } catch (error) {  // a report that cannot be sent (the program's own objects in it)
      tell({ kind: "ran", index, raw: null });
    }
  };
  tell({ kind: "prepared" });  // the last word before any student code runs here
};
