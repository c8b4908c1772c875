/** What an ORM layer started on a driver's connection offers the layered driver. */
import type { LayerImports } from './layerImport';

export interface LayerSession {
  /** Runs the workload through the layer's raw-SQL path; returns the layer's own promise. */
  query(workload: string): PromiseLike<unknown>;
  /**
   * The layer's own typed form of the drivers' default workload (`SELECT 1`, built by its query
   * builder and typed as a number), where the layer has one without an app's schema.
   */
  typedQuery?(): PromiseLike<unknown>;
  /** Lets the layer go (its own client state only: the driver's connection is closed after it). */
  close(): Promise<void>;
}

/** Starts a layer over one open connection's npm client, for the driver `driver`. */
export type LayerStarter = (driver: string, client: unknown, imports: LayerImports) => Promise<LayerSession>;
