// compression ships no types; it is installed with json-server. The part server.ts uses.
declare module 'compression' {
  import type { RequestHandler } from 'express';

  export interface CompressionOptions {
    /** Bytes below which an answer goes uncompressed (default 1 KB). */
    threshold?: number | string;
  }

  export default function compression(options?: CompressionOptions): RequestHandler;
}
