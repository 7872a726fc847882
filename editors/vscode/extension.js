// coursecheck's language server in VS Code: starts `coursecheck lsp` on
// standard input and output for the Markdown files of the workspace (the
// server checks the course's pages and lesson READMEs and answers nothing
// for other files).  Install: `npm install` here, then copy or link this
// folder into ~/.vscode/extensions/ (or `npx @vscode/vsce package`).
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('coursecheck');
  const args = ['lsp'];
  if (config.get('asPublished')) args.push('--as=published');
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  const server = {
    command: config.get('path') || 'coursecheck',
    args,
    transport: TransportKind.stdio,
    options: folder ? { cwd: folder.uri.fsPath } : undefined,
  };
  client = new LanguageClient('coursecheck', 'coursecheck', server, {
    documentSelector: [{ scheme: 'file', language: 'markdown' }],
  });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
