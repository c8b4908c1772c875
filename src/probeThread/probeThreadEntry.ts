/**
 * Entry of the probe thread (bundled as dist/probeWorker.js): the editor starts it with
 * `new Worker(...)` for each local run so the engine never shares the extension host's event loop.
 * Drivers load lazily from dist/drivers/ beside this file, as they would in the extension bundle.
 */
import { parentPort } from 'node:worker_threads';
import { createRegistry } from '../drivers/registry';
import { serveProbeThread } from './probeThread';

if (!parentPort) throw new Error('probeWorker.js runs only as a worker thread started by DB Latency Probe');
serveProbeThread(parentPort, (packages) => createRegistry(undefined, packages));
