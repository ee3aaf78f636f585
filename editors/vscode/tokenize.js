// Tokenize texts with the real TextMate engine (vscode-textmate, vscode-oniguruma) and print the tokens.
// Usage: node tokenize.js SCOPE < input.json, where input.json is a list of texts; prints, for each text,
// a list of lines, each a list of [start, end, scopes]. The grammars are those of syntaxes/.
"use strict";
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const syntaxes = path.join(__dirname, "syntaxes");
const byScope = {};
for (const file of fs.readdirSync(syntaxes)) {
  const grammar = JSON.parse(fs.readFileSync(path.join(syntaxes, file), "utf8"));
  byScope[grammar.scopeName] = path.join(syntaxes, file);
}

const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scope) => byScope[scope]
    ? vsctm.parseRawGrammar(fs.readFileSync(byScope[scope], "utf8"), byScope[scope]) : null,
});

async function main() {
  const grammar = await registry.loadGrammar(process.argv[2]);
  const texts = JSON.parse(fs.readFileSync(0, "utf8"));
  const out = texts.map((text) => {
    let stack = vsctm.INITIAL;
    return text.split("\n").map((line) => {
      const result = grammar.tokenizeLine(line, stack);
      stack = result.ruleStack;
      return result.tokens.map((t) => [t.startIndex, Math.min(t.endIndex, line.length), t.scopes]);
    });
  });
  process.stdout.write(JSON.stringify(out));
}
main().catch((err) => { console.error(err); process.exit(1); });
