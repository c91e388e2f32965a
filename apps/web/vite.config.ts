import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const backend = 'http://localhost:3000';

// The root is this folder, so the build lands in apps/web/dist, where the server serves it from.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    proxy: {
      '/api': backend,
      '/idp': backend,
    },
  },
});
