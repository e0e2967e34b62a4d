// The judge's worker: judges the raw runs the student's worker reported, by the grader's own
// Python (its judging package, copied whole into py/judging/). No student code ever runs here,
// so a program cannot rebind the judge, call the checker's callback or claim its time. The
// page asks one thing at a time, each with an id: "judge" (a run's verdict) or "stopped" (what
// a case the page stopped at its time limit shows) or "diagnose" (the known mistake all the
// results are, once every case is judged); the replies carry that id.
importScripts(PYODIDE_URL + "pyodide.js");
// Each public case's expected output, by exercise and case: here, written into this script by
// `grade site`, and in no data file of the site. The student's worker may not fetch, but it
// may import() a same-origin JSON file; this script it can only run, and its first line fails
// there (importScripts is gone from that worker) before this line is reached.
const EXPECTED = {};
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
               "from judging.browser import diagnose_raw, judge_raw, stopped_case");
}
const ready = boot();
ready.then(() => postMessage({ kind: "ready" }),
           (error) => postMessage({ kind: "failed", message: String(error) }));
const checkers = new Set();  // whose packages are loaded
const js = (found) => {
  const value = found.toJs({ dict_converter: Object.fromEntries });
  found.destroy();
  return value;
};
onmessage = async (event) => {
  const ask = event.data;
  try {
    await ready;
  } catch (error) {
    postMessage({ kind: "error", id: ask.id, message: "Python did not load: " + error });
    return;
  }
  if (ask.kind === "diagnose") {  // no case runs: the known mistakes weighed, once
    const [about, judged] = [py.toPy(ask.exercise), py.toPy(ask.results)];
    try {
      const found = py.globals.get("diagnose_raw")(about, judged);
      const result = found == null ? null : js(found);
      postMessage({ kind: "result", id: ask.id, result });
    } catch (error) {
      postMessage({ kind: "error", id: ask.id, message: String(error) });
    } finally {
      about.destroy();
      judged.destroy();
    }
    return;
  }
  const checker = ask.exercise.checker || "";
  if (checker && !checkers.has(checker)) {
    checkers.add(checker);
    try {
      await py.loadPackagesFromImports(checker);
    } catch (error) { /* the checker's import will say what is missing */ }
  }
  const expected = (EXPECTED[ask.exercise.name] || {})[ask.case.name];
  if (typeof expected !== "string") {
    postMessage({ kind: "error", id: ask.id, message: "no expected output for " + ask.case.name });
    return;
  }
  const made = [py.toPy({ ...ask.case, expected }), py.toPy(ask.exercise), py.toPy(ask.earlier)];
  const [testcase, about, above] = made;
  try {
    let result;
    if (ask.kind === "stopped") {
      result = js(py.globals.get("stopped_case")(testcase, about, above)).timeout;
    } else {
      const raw = ask.raw == null ? null : py.toPy(ask.raw);
      const checking = () => postMessage({ kind: "checking", id: ask.id });
      result = js(py.globals.get("judge_raw")(ask.source, testcase, about, raw, checking, above));
      if (raw !== null) raw.destroy();
    }
    postMessage({ kind: "result", id: ask.id, result });
  } catch (error) {
    postMessage({ kind: "error", id: ask.id, message: String(error) });
  } finally {
    for (const value of made) value.destroy();
  }
};
