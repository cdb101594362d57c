import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import type * as StubApp from './stub-server/app.ts';

// `npm run dev`: Vite with hot reload and the stub mounted in the same process.
// `API_TARGET=https://backend.example npm run dev` proxies /api and /media to a real backend.
const apiTarget = process.env.API_TARGET;

function embeddedStub(): Plugin {
  return {
    name: 'berries-embedded-stub',
    apply: 'serve',
    async configureServer(server) {
      // Vite's own loader runs the TypeScript stub, so the config stays free of server code.
      const { createStubApp } = (await server.ssrLoadModule(
        '/stub-server/app.ts',
      )) as typeof StubApp;
      const { app } = createStubApp({});
      server.middlewares.use(app);
    },
  };
}

export default defineConfig({
  plugins: [react(), ...(apiTarget ? [] : [embeddedStub()])],
  server: {
    host: '127.0.0.1',
    proxy: apiTarget
      ? {
          '/api': { target: apiTarget, changeOrigin: true },
          '/media': { target: apiTarget, changeOrigin: true },
        }
      : undefined,
  },
  build: {
    target: 'es2022',
    sourcemap: false,
  },
});
