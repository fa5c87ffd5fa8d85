import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

// The API server the dev server and `vite preview` forward /api and /socket.io to.
// API_PROXY_TARGET overrides it (e.g. when the server runs on another port).
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3000';

const proxy = {
  '/api': { target: apiTarget, changeOrigin: true },
  '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
};

export default defineConfig({
  root: import.meta.dirname,
  // Each asset also as .br and .gz beside it: the server sends the one the browser accepts
  // (koa-send, server/src/http/static-client.ts), compressed once at build instead of per request.
  plugins: [
    react(),
    compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.map$/], threshold: 1024 }),
  ],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 300,
    rolldownOptions: {
      output: {
        // React and the router change rarely: keep them in their own long-cached chunk so a
        // release of app code does not make returning users download them again.
        codeSplitting: {
          groups: [
            {
              name: 'react-vendor',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
