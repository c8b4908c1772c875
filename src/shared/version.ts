/** The tool's name and version, from package.json (inlined by esbuild into every bundle). */
import manifest from '../../package.json';

export const TOOL = { name: 'dbprobe', version: manifest.version } as const;
