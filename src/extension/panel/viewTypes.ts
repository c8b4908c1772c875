/** The panels' webview types: the manifest's onWebviewPanel events and the serializers name them. */
export const RUN_VIEW_TYPE = 'dbprobe.run';
export const COMPARE_VIEW_TYPE = 'dbprobe.compare';
