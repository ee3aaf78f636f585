// How the extension starts the language server: the program and arguments of the cardc.server settings
// (their defaults are the ones package.json declares), spoken to over stdio. It imports nothing from
// vscode, so the tests run it with node outside the editor (tests/start_server.js).
"use strict";
const SETTINGS = require("./package.json").contributes.configuration.properties;

// Return { command, args } from a settings reader get(name, fallback), e.g. a WorkspaceConfiguration's get.
function serverCommand(get) {
  const command = get("command", SETTINGS["cardc.server.command"].default);
  const args = get("args", SETTINGS["cardc.server.args"].default);
  return { command, args };
}

module.exports = { serverCommand };
