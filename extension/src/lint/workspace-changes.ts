import * as vscode from 'vscode';

/** Files other files' findings can depend on: a Prisma schema, SQL migrations, other modules. */
const dependencyGlob = '**/*.{prisma,sql,js,mjs,cjs,jsx,ts,mts,cts,tsx}';
const dependencyFile = /\.(?:prisma|sql|[cm]?[jt]s|[jt]sx)$/;
const ignoredFolder = /[\\/](?:node_modules|\.git)[\\/]/;

/**
 * Calls `changed` when a file that other files' findings can depend on changes: on disk (saved
 * here or changed by another program), or in an editor before it is saved, since the analysis
 * reads open documents' unsaved texts.
 */
export function watchDependencies(changed: (uri: vscode.Uri) => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(dependencyGlob);
  const report = (uri: vscode.Uri) => {
    if (!ignoredFolder.test(uri.path)) changed(uri);
  };
  return vscode.Disposable.from(
    watcher,
    watcher.onDidChange(report),
    watcher.onDidCreate(report),
    watcher.onDidDelete(report),
    vscode.workspace.onDidChangeTextDocument(({ document, contentChanges }) => {
      if (contentChanges.length > 0 && document.uri.scheme === 'file' && dependencyFile.test(document.uri.path))
        report(document.uri);
    }),
  );
}
