/** What a saved figure says of the machine it came from: shared by the benches and the docs savers. */
import * as os from 'node:os';

export interface MachineFacts {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  platform: string;
  node: string;
}

export function machineFacts(): MachineFacts {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
  };
}

/** The 1, 5 and 15 minute load averages, two decimals. */
export function loadAverage(): number[] {
  return os.loadavg().map((x) => Math.round(x * 100) / 100);
}
