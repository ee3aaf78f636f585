// The cardc extension: highlighting comes from the grammars of package.json; this starts the language
// server, `cardc lsp` by default, over stdio, for every file the extension has a language for.
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");
const { serverCommand } = require("./server");

const LANGUAGES = ["card", "cardc-deck", "cardc-party", "cardc-scenario", "cardc-battle", "cardc-team",
  "cardc-replay"];
let client;

function serverOptions() {
  const config = vscode.workspace.getConfiguration("cardc.server");
  return { ...serverCommand((name, fallback) => config.get(name, fallback)), transport: TransportKind.stdio };
}

async function activate(context) {
  const clientOptions = {
    documentSelector: LANGUAGES.map((language) => ({ scheme: "file", language })),
  };
  client = new LanguageClient("cardc", "cardc language server", serverOptions(), clientOptions);
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(async (event) => {
    if (event.affectsConfiguration("cardc.server") && client) {
      await client.stop();
      client = new LanguageClient("cardc", "cardc language server", serverOptions(), clientOptions);
      await client.start();
    }
  }));
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
