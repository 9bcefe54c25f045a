// extension.js - the lmdl extension's code: starts the language server
// `lmdlc lsp` (docs/tools.md, "lsp") for .lmdl files, through
// vscode-languageclient, and stops it with the editor.  Highlighting is the
// TextMate grammar's (syntaxes/); the settings are package.json's
// lmdl.server.*.  `npm install` in this folder fetches the client library.
'use strict';

const vscode = require('vscode');

let client;

function activate(context) {
    const config = vscode.workspace.getConfiguration('lmdl');
    if (!config.get('server.enable', true))
        return;
    let LanguageClient;
    try {
        ({ LanguageClient } = require('vscode-languageclient/node'));
    } catch (e) {
        vscode.window.showWarningMessage(
            'lmdl: vscode-languageclient is missing (run npm install in the ' +
            'extension folder); highlighting only, no language server.');
        return;
    }
    const serverOptions = {
        command: config.get('server.path', 'lmdlc'),
        args: ['lsp'],
    };
    const clientOptions = {
        documentSelector: [{ scheme: 'file', language: 'lmdl' },
                           { scheme: 'untitled', language: 'lmdl' }],
        initializationOptions: { includeDirs: config.get('server.includeDirs', []) },
    };
    client = new LanguageClient('lmdl', 'lmdl language server (lmdlc lsp)',
                                serverOptions, clientOptions);
    client.start();
    context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
    return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
