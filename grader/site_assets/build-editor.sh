#!/bin/sh
# Rebuilds editor.js (CodeMirror 6 and its Python mode, one minified file, no network at run
# time) and editor.LICENSE.txt (the licence of every package inside it) from the npm
# registry, in a temporary folder. Needs node and npm. Run from anywhere:
#   sh grader/site_assets/build-editor.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
# the versions the vendored bundle was built from; their dependencies are npm's choice
npm install --no-audit --no-fund --silent \
  codemirror@6.0.2 @codemirror/lang-python@6.2.1 esbuild@0.28.2
cp "$here/editor-entry.js" entry.js
npx esbuild entry.js --bundle --minify --format=iife --global-name=GradeEditor \
  --legal-comments=none --metafile=meta.json --outfile=editor.js
# the packages the bundle holds, each with its version and licence text
node -e '
const fs = require("fs");
const inputs = Object.keys(JSON.parse(fs.readFileSync("meta.json")).outputs["editor.js"].inputs);
const names = new Set();
for (const path of inputs) {
  const found = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (found) names.add(found[1]);
}
let text = "editor.js bundles these npm packages (built by build-editor.sh):\n";
for (const name of [...names].sort()) {
  const folder = "node_modules/" + name + "/";
  const about = JSON.parse(fs.readFileSync(folder + "package.json"));
  const file = fs.readdirSync(folder).find((f) => /^licen[cs]e/i.test(f));
  if (!file) throw new Error("no licence file in " + name);
  text += "\n== " + name + " " + about.version + " (" + about.license + ") ==\n\n";
  text += fs.readFileSync(folder + file, "utf8").trim() + "\n";
}
fs.writeFileSync("editor.LICENSE.txt", text);
'
printf '/* CodeMirror 6 for grade site: built by build-editor.sh; licences in editor.LICENSE.txt */\n' \
  | cat - editor.js >"$here/editor.js"
cp editor.LICENSE.txt "$here/editor.LICENSE.txt"
echo "wrote $here/editor.js ($(wc -c <"$here/editor.js") bytes) and editor.LICENSE.txt"
