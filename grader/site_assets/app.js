// The exercise page: an editor whose draft stays in this browser, "Run on samples" and "Grade".
// Student text is only ever set as textContent: it is data, never markup.
const NAME = document.body.dataset.exercise;
const BOOT_MS = 180000;  // loading Python itself, before the first case's clock starts
const results = document.getElementById("results");
const diagnosis = document.getElementById("diagnosis");  // the known mistake, once all are judged
const summary = document.getElementById("summary");
const python = document.getElementById("python");  // whether the next Grade's Python is loaded
const save = (text) => localStorage.setItem("grade:" + NAME, text);
const textarea = document.getElementById("code");
textarea.value = localStorage.getItem("grade:" + NAME) || "import sys\n\n";
// The code editor (editor.js: CodeMirror 6, bundled by build-editor.sh) in place of the
// textarea; the textarea itself where that file did not load. Its text is what is graded.
const editor = window.GradeEditor ? GradeEditor.replaceTextarea(textarea, save) : {
  get: () => textarea.value,
  set: (text) => { textarea.value = text; save(text); },
};
window.gradeEditor = editor;  // for scripts and tests: get() and set(text)
if (!window.GradeEditor) {
  textarea.addEventListener("input", () => save(textarea.value));
  textarea.addEventListener("keydown", (event) => {
    if (event.key === "Tab") {
      event.preventDefault();
      textarea.setRangeText("    ", textarea.selectionStart, textarea.selectionEnd, "end");
      save(textarea.value);
    }
  });
}

// Python loads in a worker as soon as the page opens, while the student reads and types; a
// worker serves one Grade (the student's code ran in it), and a spare loads for the next.
// The spare's state is said beside the buttons: loading, ready, or not to be had.
function newWorker(watched) {
  const worker = new Worker("worker.js");
  worker.failed = null;  // an error before anyone listens (Pyodide not found) is kept here
  const say = (text, kind) => {
    if (!watched || worker !== spare) return;  // a Grade took it: the summary speaks then
    python.textContent = text;
    python.className = kind;
  };
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    worker.failed = event.message || "the worker failed";
    say("Python did not load", "bad");
    if (worker.onfailed) worker.onfailed(worker.failed);
  });
  // posted once Python is loaded, before any student code ran in this worker; heard only until
  // a Grade takes it (its onmessage is then null: the grader speaks on a port of its own)
  worker.onmessage = (event) => {
    if (event.data && event.data.kind === "ready") say("Python ready", "ok");
    if (event.data && event.data.kind === "failed") say("Python did not load", "bad");
  };
  return worker;
}
function newSpare() {
  python.textContent = "loading Python…";
  python.className = "note";
  spare = newWorker(true);
}
let spare = null;
newSpare();

function row(parent, label, text, kind) {
  const line = document.createElement("div");
  line.className = "row " + (kind || "");
  const key = document.createElement("span");
  key.className = "label";
  key.textContent = label;
  const value = document.createElement("pre");
  value.textContent = text;
  line.append(key, value);
  parent.append(line);
  const mark = value.querySelector(".caret");
  if (mark) {  // a long line: scrolled so that the caret shows, a third of the way in
    const left = mark.getBoundingClientRect().left - value.getBoundingClientRect().left;
    value.scrollLeft = Math.max(0, left - value.clientWidth / 3);
  }
}

// The expected and actual lines and the caret in one block that scrolls sideways as one and
// never wraps: in monospace, so the caret stays under its token at any width (a phone's too).
function mismatch(parent, expected, got, token) {
  const line = document.createElement("div");
  line.className = "row mismatch";
  const key = document.createElement("span");
  key.className = "label";
  key.textContent = "expected\ngot";
  const value = document.createElement("pre");
  value.append(expected + "\n" + got);
  const found = [...got.matchAll(/[^ \t\r\f\v]+/g)][(token || 0) - 1];
  if (found) {
    const under = document.createElement("span");
    under.className = "caret";
    under.textContent = "^".repeat(found[0].length);
    // what precedes the token, as blanks (a tab stays a tab: it is as wide as above)
    value.append("\n" + got.slice(0, found.index).replace(/[^\t]/g, " "), under);
  }
  line.append(key, value);
  parent.append(line);
  const mark = value.querySelector(".caret");
  if (mark) {  // a long line: scrolled so that the caret shows, a third of the way in
    const left = mark.getBoundingClientRect().left - value.getBoundingClientRect().left;
    value.scrollLeft = Math.max(0, left - value.clientWidth / 3);
  }
}

// What the grader's Python decided (judging/grouping.py, as grade's report has it): a failure
// that repeats one above points to it, with its hint if no case above said that hint.
function show(box, testcase, result, checked) {
  box.className = "case " + (result.status === "passed" ? "passed" : "failed");
  box.querySelector(".status").textContent = result.status;
  box.querySelector(".time").textContent =
    result.time_s === undefined ? "" : result.time_s.toFixed(2) + " s";
  streams(box, result);
  if (result.status === "passed") return;
  const details = box.querySelector(".details");
  // (Python's None arrives as undefined: "!= null" covers both)
  if (result.compiled === false) {  // said once, above the cases, none of which ran
    if (!results.querySelector(".compile")) {
      const said = document.createElement("div");
      said.className = "compile";
      const head = document.createElement("p");
      head.className = "bad";
      head.textContent = "your code does not compile:";
      const error = document.createElement("pre");
      error.textContent = result.stderr || result.message;
      said.append(head, error);
      results.prepend(said);
    }
    return;
  }
  if (result.same_as != null) {
    row(details, "", `the same mistake as ${result.same_as}, above`, "same");
    if (result.hint && !result.hint_said) row(details, "hint", "this case checks: " + result.hint);
    const first = [...results.children].find((other) => other.dataset.name === result.same_as);
    if (first) also(first.querySelector(".details"), result.name);
    return;
  }
  row(details, "problem", result.message);
  if (result.status !== "grader_error") row(details, "input", result.input);
  if (result.status === "wrong_answer" && checked) {  // several answers are right: no line
    row(details, "output", (result.stdout || "").split("\n").slice(0, 20).join("\n"));
  } else if (result.status === "wrong_answer" && result.got_line != null) {
    mismatch(details, result.expected_line != null ? result.expected_line : "", result.got_line,
             result.token);
  }
  if (result.status === "runtime_error" && result.stderr) {  // the traceback: its end
    row(details, "stderr", result.stderr.split("\n").slice(-12).join("\n"));
  }
  if (result.status === "output_limit") {  // how it began: usually a loop's output
    const flood = result.message.includes(" on stderr;") ? result.stderr : result.stdout;
    row(details, "printed", (flood || "").split("\n").slice(0, 6).join("\n"));
  }
  if (result.advice) row(details, "advice", result.advice, "advice");
  if (result.hint) row(details, "hint", "this case checks: " + result.hint);
}

// What the program printed, collapsed until asked for: for a passing case too (the advice sends
// debugging prints to stderr). Not for a case the page stopped: its output went with the worker.
function streams(box, result) {
  if (result.compiled === false) return;
  const shown = document.createElement("div");
  shown.className = "streams";
  for (const name of ["stdout", "stderr"]) {
    const text = result[name];
    if (text == null) continue;
    const stream = document.createElement("details");
    stream.className = "stream " + name;
    const title = document.createElement("summary");
    const count = text === "" ? 0 : text.replace(/\n$/, "").split("\n").length;
    title.textContent = name + ": " + (count === 0 ? "nothing" : count + (count === 1 ? " line" : " lines"));
    const printed = document.createElement("pre");
    printed.textContent = text;
    stream.append(title, printed);
    shown.append(stream);
  }
  if (shown.childElementCount) box.append(shown);
}

// The first of a group lists the cases that repeat it, as grade's written report does
function also(details, name) {
  let line = details.querySelector(".also pre");
  if (!line) {
    row(details, "also in", "", "also");
    line = details.querySelector(".also pre");
  }
  line.textContent = line.textContent ? line.textContent + ", " + name : name;
}

// The judge's worker (judge.js): loaded with the page and kept, since no student code runs in
// it; ended only when an exercise's checker runs past the time limit, then loaded again.
let judgeWorker = null;
let asked = 0;
function newJudge() {
  const worker = new Worker("judge.js");
  worker.waiting = new Map();  // id -> what is waiting for its reply
  worker.failed = null;
  const fail = (why) => {
    worker.failed = why;
    for (const waiting of worker.waiting.values()) waiting.reject(new Error(why));
    worker.waiting.clear();
  };
  const booting = setTimeout(() => fail("Python did not load in time"), BOOT_MS);
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    fail(event.message || "the judge failed");
  });
  worker.onmessage = (event) => {
    const message = event.data;
    if (message.kind === "ready") clearTimeout(booting);
    if (message.kind === "failed") fail("Python did not load: " + message.message);
    const waiting = worker.waiting.get(message.id);
    if (waiting === undefined) return;
    if (message.kind === "checking") {
      waiting.checking();
      return;
    }
    worker.waiting.delete(message.id);
    if (message.kind === "result") waiting.resolve(message.result);
    else waiting.reject(new Error(message.message));
  };
  return worker;
}
function askJudge(request, checking) {
  if (judgeWorker === null) judgeWorker = newJudge();
  const worker = judgeWorker;
  return new Promise((resolve, reject) => {
    if (worker.failed !== null) {
      reject(new Error(worker.failed));
      return;
    }
    const id = asked++;
    worker.waiting.set(id, { resolve, reject, checking: checking || (() => {}) });
    worker.postMessage({ ...request, id });
  });
}
function endJudge(kind) {  // the checker ran past the limit: the exercise's fault
  const worker = judgeWorker;
  judgeWorker = null;
  worker.terminate();
  for (const waiting of worker.waiting.values()) {
    waiting.reject(Object.assign(new Error("stopped"), { checker: kind === "checker" }));
  }
  worker.waiting.clear();
}
judgeWorker = newJudge();

const buttons = [...document.querySelectorAll("button")];

async function grade(exercise, cases) {
  const source = editor.get();  // what was there at the click: edits meanwhile are the next's
  for (const button of buttons) button.disabled = true;
  results.textContent = "";
  diagnosis.textContent = "";
  summary.className = "";
  summary.textContent = "loading Python…";
  const boxes = cases.map((testcase) => {
    const box = document.createElement("div");
    box.className = "case";
    box.dataset.name = testcase.name;
    const head = document.createElement("div");
    head.className = "head";
    const name = testcase.name === testcase.title ? "" : testcase.name;  // what pointers name
    const parts = [["title", testcase.title], ["name", name], ["status", "waiting"], ["time", ""]];
    for (const [name, text] of parts) {
      const span = document.createElement("span");
      span.className = name;
      span.textContent = text;
      head.append(span);
    }
    const details = document.createElement("div");
    details.className = "details";
    box.append(head, details);
    results.append(box);
    return box;
  });
  const limit = exercise.time_s * 1000;  // the browser's limit already (timing.py)
  const checked = exercise.method === "checker";
  const about = { name: exercise.name, method: exercise.method, options: exercise.options,
                  checker: exercise.checker, time_s: exercise.time_s,
                  output_kb: exercise.output_kb };
  let passed = 0;
  let next = 0;  // the next case the student's worker is to run
  let broken = null;  // why Python could not run here: nothing is the student's then
  const placed = [];  // each result's "group": the grader groups the next ones by them
  const judged = [];  // what the known mistakes are weighed against, once all are judged
  const verdict = (index, result) => {
    if (result.status === "passed") passed += 1;
    judged.push({ name: cases[index].name, status: result.status, digest: result.digest,
                  compiled: result.compiled });
    if (result.group) placed.push(result.group);
    show(boxes[index], cases[index], result, checked);
  };
  // The judge takes the runs in case order, one at a time, each grouped after those above it;
  // its own clock runs only while an exercise's checker does.
  let judging = Promise.resolve();
  const judgeRun = (index, raw) => {
    judging = judging.then(async () => {
      let timer = null;
      const checking = () => {
        clearTimeout(timer);
        timer = setTimeout(() => endJudge("checker"), limit);
      };
      try {
        verdict(index, await askJudge({ kind: "judge", source, case: cases[index],
                                        exercise: about, raw, earlier: [...placed] }, checking));
      } catch (error) {
        verdict(index, { status: "grader_error", message: error.checker
          ? "the checker did not finish: the exercise's fault, not yours"
          : "the page's grader failed: " + error.message });
      } finally {
        clearTimeout(timer);
      }
    });
  };
  const stopped = (index, why) => {
    judging = judging.then(async () => {
      let result;
      try {
        result = await askJudge({ kind: "stopped", case: cases[index], exercise: about,
                                  earlier: [...placed] });
      } catch (error) {
        result = { status: "timeout", message: why };
      }
      verdict(index, { ...result, stdout: null, stderr: null });  // its output went with it
    });
  };
  // The page's clock alone says how long a case ran: it starts as the page sends the case to
  // the student's worker and ends at the deadline, when the page terminates that worker, whatever
  // the worker said meanwhile. Once the first case is sent, the student's code has run there,
  // so what the worker says is data: one report per case asked, for that case, in order; any
  // other message is the program's crash, never a clock event (a program once re-armed this
  // clock by posting "start" on the port it stole, and passed at three times the limit).
  await new Promise((finish) => {
    function start() {  // a worker (the spare, or a new one) for the cases from `next` on
      const worker = spare || newWorker(false);
      if (spare !== null) python.textContent = "";  // in use: the summary says how it goes
      spare = null;
      const channel = new MessageChannel();
      const port = channel.port1;
      let asking = -1;  // the case the page waits for; -1 while no student code ran there
      let sent = 0;  // when it was sent: performance.now()
      let timer = setTimeout(() => unavailable("Python did not load in time"), BOOT_MS);
      const end = () => {
        clearTimeout(timer);
        port.onmessage = null;
        port.close();
        worker.onfailed = null;
        worker.terminate();
      };
      function unavailable(why) {  // before any case: Python, not the program
        end();
        broken = why;
        finish();
      }
      const onward = () => {  // this worker is done with: the next case in a fresh one
        next += 1;
        if (next < cases.length) start(); else finish();
      };
      const timeUp = () => {  // the student's time is up: this worker ends here
        end();
        stopped(asking, `no answer within ${limit / 1000} s; stopped`);
        onward();
      };
      const crashed = () => {  // it said what it was not asked, or broke its worker
        end();
        judgeRun(asking, null);
        onward();
      };
      function ask() {
        asking = next;
        summary.textContent = `running ${asking + 1}/${cases.length}…`;
        boxes[asking].querySelector(".status").textContent = "running";
        clearTimeout(timer);
        // the inputs only: what a case expects is the judge's, never the student's worker's
        port.postMessage({ index: asking, input: cases[asking].input });
        sent = performance.now();
        timer = setTimeout(timeUp, limit);
      }
      worker.onfailed = (why) => {
        if (asking < 0) unavailable("Python did not load: " + why); else crashed();
      };
      worker.onmessage = null;  // its own channel: the student's code could post there
      port.onmessage = (event) => {
        const message = event.data;
        if (asking < 0) {  // worker.js itself speaks: no student code ran in this worker yet
          if (message.kind === "prepared") ask();
          else unavailable(message.message);
          return;
        }
        const took = performance.now() - sent;
        if (took >= limit) {
          timeUp();
          return;
        }
        const ran = message !== null && typeof message === "object" && message.kind === "ran"
          && message.index === asking && Object.keys(message).length === 3;
        if (!ran) {
          crashed();
          return;
        }
        clearTimeout(timer);
        const raw = message.raw !== null && typeof message.raw === "object"
          ? { ...message.raw, wall_s: took / 1000 } : null;  // the time is the page's
        judgeRun(asking, raw);
        if (asking + 1 < cases.length) {
          next = asking + 1;
          ask();
        } else {
          end();  // never again: the student's code ran in it; a fresh one for the next Grade
          next = cases.length;
          finish();
        }
      };
      if (worker.failed !== null) {
        unavailable("Python did not load: " + worker.failed);
        return;
      }
      worker.postMessage({ source, cap: exercise.output_kb * 1024 }, [channel.port2]);
    }
    start();
  });
  await judging;
  if (broken === null) await named(exercise, cases, judged);  // before the verdict is final
  if (spare === null) newSpare();  // loading while the student reads the verdicts
  for (const button of buttons) button.disabled = false;
  if (broken !== null) {
    for (let i = next; i < cases.length; i++) {
      boxes[i].querySelector(".status").textContent = "not run";
    }
    summary.textContent = broken + " (is this page offline?): nothing was graded";
    summary.className = "bad";
    return;
  }
  summary.textContent = passed === cases.length
    ? `all ${cases === exercise.cases ? "public " : "sample "}cases passed (${passed}/${cases.length})`
    : `${passed}/${cases.length} cases passed`;
  summary.className = passed === cases.length ? "ok" : "bad";
}

// The known mistake every case's output is, if exactly one is (judging/mistakes.py, by the
// judge's Python, over all the cases as grade weighs them): said once, as grade says it.
async function named(exercise, cases, judged) {
  const known = { mistakes: exercise.mistakes || {},
                  cases: cases.map((c) => ({ name: c.name, printed: c.printed || {} })) };
  let found = null;
  try {
    found = await askJudge({ kind: "diagnose", exercise: known, results: judged });
  } catch (error) {
    return;  // naming a mistake only helps: the verdicts stand without it
  }
  if (found) row(diagnosis, "mistake", found.summary, "mistake");  // worded as grade's reports
}

fetch(NAME + ".json").then((response) => response.json()).then((exercise) => {
  document.getElementById("grade").onclick = () => grade(exercise, exercise.cases);
  document.getElementById("samples").onclick =
    () => grade(exercise, exercise.cases.filter((c) => c.sample));
});
