// wouter imports `use-sync-external-store/shim` for React before 18; React 19 has the hook
// itself. vite.config.ts points the shim here, which saves the first view its 0.3 KB (gzip).
export { useSyncExternalStore } from 'react';
