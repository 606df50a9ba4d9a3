// Placeholder: copies the lessons package's build output into the webview folder.
export function copyLessonAssets() {}
