import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// `npm run dev`: Vite with hot reload and the stub mounted in the same process.
// `API_TARGET=https://backend.example npm run dev` proxies /api and /media to a real backend.
const apiTarget = process.env.API_TARGET;

function embeddedStub(): Plugin {
  return {
    name: 'berries-embedded-stub',
    apply: 'serve',
    async configureServer(server) {
      const { createStubApp } = await import('./stub-server/app.ts');
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
