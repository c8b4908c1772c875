/**
 * The context keys the extension sets for package.json's `when` clauses (what a menu, the palette or
 * a keybinding offers depends on them). One list, so the manifest test can check every clause names
 * a key that is set.
 */

/** The editor languages "Probe this query" reads (an array: `editorLangId in dbprobe.queryLanguages`). */
export const QUERY_LANGUAGES_KEY = 'dbprobe.queryLanguages';
/** The active editor, in one of those languages, has a selection or its cursor on a statement. */
export const CAN_PROBE_QUERY_KEY = 'dbprobe.canProbeQuery';
/** A heartbeat is running: it has a target and queries it on its interval. */
export const HEARTBEAT_RUNNING_KEY = 'dbprobe.heartbeatRunning';
