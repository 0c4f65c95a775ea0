import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressDir } from './server/http/compress';

/** Writes .br and .gz beside every text file of the build; the server sends them as they are. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}

export default defineConfig({
  root: 'web',
  plugins: [react(), precompress()],
  build: {
    // WEB_DIST lets parallel test runs build into folders of their own.
    outDir: process.env.WEB_DIST ?? '../dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
});
