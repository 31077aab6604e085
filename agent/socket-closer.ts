import { normalizeIp } from "./access-log.ts";
import { type Endpoint, endpointKey } from "./open-connections.ts";
import { runCommand } from "./run-command.ts";

/** Endpoints per `ss` run: one filter, one process, however many sockets a revocation ends. */
const endpointsPerRun = 64;

const run = (command: string[]) => runCommand(command, 10_000);

const portFilter = (ports: number[]) => [
  "(",
  ...ports.flatMap((port, index) => [...(index ? ["or"] : []), "sport", "=", `:${port}`]),
  ")",
];

/**
 * Ends the node's side of these client connections with `ss -K` (the kernel's SOCK_DESTROY:
 * the client sees a reset at once). Only sockets on the managed inbounds' ports are
 * matched, so nothing else on the machine is touched. Needs root (or CAP_NET_ADMIN).
 */
export async function closeSockets(endpoints: Endpoint[], managedPorts: number[]): Promise<void> {
  // Every group is tried: one failed run must not leave the rest of a revocation open.
  const failures: string[] = [];
  const groups = new Map<string, { ports: number[]; endpoints: Endpoint[] }>();
  for (const endpoint of endpoints) {
    const ports = endpoint.inboundPort === undefined ? managedPorts : [endpoint.inboundPort];
    const key = ports.join(",");
    const group = groups.get(key) ?? { ports, endpoints: [] };
    group.endpoints.push(endpoint);
    groups.set(key, group);
  }
  for (const { ports, endpoints: grouped } of groups.values()) {
    for (let start = 0; start < grouped.length; start += endpointsPerRun) {
      const chunk = grouped.slice(start, start + endpointsPerRun);
      const destinations = chunk.flatMap((endpoint, index) => [
        ...(index ? ["or"] : []),
        "dst",
        endpointKey(endpoint.ip, endpoint.port),
      ]);
      await run(["ss", "-K", "-H", "-tn", "(", ...destinations, ")", "and", ...portFilter(ports)]).catch(
        (error: Error) => failures.push(error.message),
      );
    }
  }
  if (failures.length > 0) throw new Error(failures.join("; "));
}

/** `ip:port` of every client connected to the managed ports now, as OpenConnections keys them. */
export async function establishedEndpoints(managedPorts: number[]): Promise<Set<string>> {
  const output = await run(["ss", "-H", "-tn", "state", "established", ...portFilter(managedPorts)]);
  const endpoints = new Set<string>();
  for (const line of output.split("\n")) {
    // Recv-Q Send-Q Local:Port Peer:Port
    const peer = line.trim().split(/\s+/)[3];
    const match = peer ? /^(.*):(\d+)$/.exec(peer) : null;
    if (match) endpoints.add(endpointKey(normalizeIp(match[1] ?? ""), Number(match[2])));
  }
  return endpoints;
}
