// The server's own connections to the backend (its calls for pages and forms, the image route's
// sources): one keep-alive agent with a cap on sockets, so that a backend that stalls can never
// pile up sockets until the process runs out of files. Past the cap a call fails at once, and
// the page or form answers with its message, instead of queueing behind calls that hang.
import { Agent, fetch as agentFetch } from 'undici';

export class BackendBusyError extends Error {
  constructor(max: number) {
    super(`all ${max} connections to the backend are in use`);
    this.name = 'BackendBusyError';
  }
}

export interface BackendAgent {
  /** `fetch` through the agent. */
  fetch: typeof fetch;
  /** Calls under way now. */
  inFlight(): number;
  close(): Promise<void>;
}

export function backendAgent(maxSockets: number): BackendAgent {
  const agent = new Agent({
    connections: maxSockets,
    // Idle sockets go after a few seconds: a stalled backend leaves none behind for long.
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 10_000,
  });
  let inFlight = 0;
  const boundedFetch = async (input: string | URL | Request, init?: RequestInit) => {
    if (inFlight >= maxSockets) throw new BackendBusyError(maxSockets);
    inFlight += 1;
    try {
      // undici's own fetch with its own agent: Node's global fetch bundles another undici.
      return (await agentFetch(input as Parameters<typeof agentFetch>[0], {
        ...(init as Parameters<typeof agentFetch>[1]),
        dispatcher: agent,
      })) as unknown as Response;
    } finally {
      inFlight -= 1;
    }
  };
  return {
    fetch: boundedFetch as typeof fetch,
    inFlight: () => inFlight,
    // Destroyed, not closed: a call to a backend that never answers must not hold up a stop.
    close: () => agent.destroy(),
  };
}
