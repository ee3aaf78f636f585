// Start the language server the way the extension does (server.js with the settings' defaults, stdio),
// speak to it with vscode-jsonrpc (the transport vscode-languageclient uses), open the document given on
// stdin as {uri, languageId, text}, and print the first diagnostics it publishes as JSON.
"use strict";
const { spawn } = require("child_process");
const rpc = require("vscode-jsonrpc/node");
const { serverCommand } = require("../server");

async function main(doc) {
  const { command, args } = serverCommand((name, fallback) => fallback);
  const server = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const connection = rpc.createMessageConnection(
    new rpc.StreamMessageReader(server.stdout), new rpc.StreamMessageWriter(server.stdin));
  const published = new Promise((resolve) => {
    connection.onNotification("textDocument/publishDiagnostics", resolve);
  });
  connection.listen();
  const init = await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
  connection.sendNotification("initialized", {});
  connection.sendNotification("textDocument/didOpen", { textDocument: { ...doc, version: 1 } });
  const diagnostics = await published;
  await connection.sendRequest("shutdown");
  connection.sendNotification("exit");
  process.stdout.write(JSON.stringify({ server: init.serverInfo, command: [command, ...args], diagnostics }));
}

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => main(JSON.parse(input)).catch((err) => { console.error(err); process.exit(1); }));
