// Resizing and encoding with sharp (libvips): a maintained native library that decodes JPEG,
// PNG, WebP, AVIF and GIF safely and fast, and writes AVIF, WebP and mozjpeg's JPEG, none of
// which JavaScript could do at a useful speed. Its Linux binary comes as an npm package.
// It runs in a process of its own (host/images/image-resizer.mjs, why: there), started with the
// first picture to resize and stopped when idle: many instances never resize one.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type OutputFormat = 'avif' | 'webp' | 'jpeg';

export const OUTPUT_TYPES: Record<OutputFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};

export class ResizeError extends Error {
  constructor(readonly reason: 'too-many-pixels' | 'broken' | 'too-slow' | 'busy') {
    super(`image resize: ${reason}`);
  }
}

export interface ResizeLimits {
  /** A decompression bomb (a small file of 20000 × 20000 pixels) is refused from its header. */
  maxPixels: number;
  timeoutMs: number;
  /** Resizes at once; the others wait their turn, up to `maxWaiting`, and then are refused. */
  concurrency: number;
  maxWaiting: number;
}

/** What the resizer process is asked: one picture. */
export interface ResizeJob {
  id: number;
  source: Uint8Array;
  width: number;
  format: OutputFormat;
  maxPixels: number;
  timeoutSeconds: number;
}

type ResizeAnswer = { id: number; body: Uint8Array } | { id: number; error: ResizeError['reason'] };

const RESIZER = fileURLToPath(new URL('./image-resizer.mjs', import.meta.url));
/** The resizer gives its memory back when no picture has been asked for this long. */
const IDLE_MS = 15_000;
/** Past sharp's own timeout, a resizer that has not answered is stuck: it is stopped. */
const STUCK_MS = 5_000;

interface Waiting {
  /** The process asked: one that ends fails only its own pictures. */
  resizer: ChildProcess;
  resolve(body: Buffer): void;
  reject(error: ResizeError): void;
  stuck: NodeJS.Timeout;
}

/** The resizer process, started when a picture is asked for and stopped when idle. */
function resizerProcess(onStart: () => void) {
  let child: ChildProcess | undefined;
  let lastId = 0;
  let idle: NodeJS.Timeout | undefined;
  const waiting = new Map<number, Waiting>();

  function answered(id: number, outcome: Buffer | ResizeError) {
    const job = waiting.get(id);
    if (!job) return;
    waiting.delete(id);
    clearTimeout(job.stuck);
    if (outcome instanceof ResizeError) job.reject(outcome);
    else job.resolve(outcome);
    if (waiting.size > 0 || !child) return;
    // Idle: the shop's own process may end without waiting for it, and it ends after a while.
    child.channel?.unref();
    const idleChild = child;
    idle = setTimeout(() => idleChild.connected && idleChild.disconnect(), IDLE_MS).unref();
  }

  function start(): ChildProcess {
    // Plain Node, whatever loader or heap settings the shop's own process runs with.
    const started = fork(RESIZER, [], { execArgv: [], serialization: 'advanced' });
    onStart();
    started.on('message', (answer: ResizeAnswer) =>
      answered(
        answer.id,
        'body' in answer
          ? Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength)
          : new ResizeError(answer.error),
      ),
    );
    const gone = () => {
      if (child === started) child = undefined;
      // A picture that crashed the decoder fails, with those resized beside it; the next
      // picture starts a new process.
      for (const [id, job] of waiting) {
        if (job.resizer === started) answered(id, new ResizeError('broken'));
      }
    };
    started.on('exit', gone);
    started.on('error', gone);
    started.unref();
    return started;
  }

  return (job: Omit<ResizeJob, 'id'>): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      clearTimeout(idle);
      child ??= start();
      child.channel?.ref();
      const id = (lastId += 1);
      const running = child;
      const stuck = setTimeout(
        () => {
          answered(id, new ResizeError('too-slow'));
          running.kill('SIGKILL');
        },
        job.timeoutSeconds * 1000 + STUCK_MS,
      );
      waiting.set(id, { resizer: running, resolve, reject, stuck });
      running.send({ ...job, id } satisfies ResizeJob);
    });
}

/** A queue of at most `concurrency` running jobs and `maxWaiting` waiting ones. */
function limiter(concurrency: number, maxWaiting: number, onQueued: () => void) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const queue = async <T>(job: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) {
      if (waiting.length >= maxWaiting) throw new ResizeError('busy');
      onQueued();
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    running += 1;
    try {
      return await job();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
  return { queue, counts: () => ({ running, waiting: waiting.length }) };
}

/** What the resizer tells the metrics (host/process/metrics.ts). */
export interface ResizerEvents {
  /** A resize waits for its turn. */
  queued(): void;
  /** A resizer process is started. */
  resizerStarted(): void;
}

const SILENT: ResizerEvents = { queued() {}, resizerStarted() {} };

export function imageResizer(limits: ResizeLimits, events: ResizerEvents = SILENT) {
  const { queue, counts } = limiter(limits.concurrency, limits.maxWaiting, () => events.queued());
  const resizer = resizerProcess(() => events.resizerStarted());
  const resize = (source: Buffer, width: number, format: OutputFormat): Promise<Buffer> =>
    queue(() =>
      resizer({
        source,
        width,
        format,
        maxPixels: limits.maxPixels,
        timeoutSeconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)),
      }),
    );
  /** Resizes under way, and waiting for their turn. */
  return Object.assign(resize, { counts });
}
