// json-server 0.17 ships no types. This declares the part of its module API the stub uses.
declare module 'json-server' {
  import type { Express, RequestHandler, Router } from 'express';

  /** lowdb 1.x over lodash: the state object plus a synchronous file adapter. */
  export interface LowdbSync {
    getState(): unknown;
    setState(state: object): LowdbSync;
    read(): LowdbSync;
    /** Writes the current state to the file (synchronously for the FileSync adapter). */
    write<T>(returnValue?: T): T;
  }

  export interface JsonServerRouter extends Router {
    db: LowdbSync;
  }

  export interface DefaultsOptions {
    logger?: boolean;
    static?: string;
    noCors?: boolean;
    noGzip?: boolean;
    readOnly?: boolean;
    bodyParser?: boolean;
  }

  const jsonServer: {
    create(): Express;
    router(source: string | object, options?: { foreignKeySuffix?: string }): JsonServerRouter;
    defaults(options?: DefaultsOptions): RequestHandler[];
    bodyParser: RequestHandler[];
    rewriter(routes: Record<string, string>): Router;
  };
  export default jsonServer;
}
