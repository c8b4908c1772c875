/**
 * The one place an ORM layer's packages are imported. They are the app's, not the tool's: the
 * specifier is a variable, so no bundle inlines a copy, and Node resolves it from where the tool is
 * installed, as the app's own `import` would.
 */
import { ProbeError } from '../../core/failure';

export async function importLayerPackage<T>(specifier: string, layer: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ProbeError(
      'config',
      `the "${layer}" layer could not load ${specifier} (${reason}); install it in your project (npm install ${packageOf(specifier)}), or remove "orm" from the target`,
    );
  }
}

/** The npm package a module specifier belongs to (`drizzle-orm/node-postgres` -> `drizzle-orm`). */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}
