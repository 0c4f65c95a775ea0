import path from 'node:path';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressDir } from './server/http/compress';

/** The chart screens' libraries: loaded with those screens only. */
const CHARTS =
  /node_modules[\\/](recharts|@mantine[\\/]charts|d3-|victory-vendor|decimal\.js-light|es-toolkit|@reduxjs|redux|immer|reselect|react-redux|eventemitter3)/;

/**
 * What only the screens with forms need: number inputs, the lead lists. No module that builds
 * schemas is in it, nor zod: every module of a chunk starts with it, and building a screen's
 * schemas it does not use was the largest part of starting its code on a phone. The forms'
 * schemas (web/forms/checks.ts, domain/schemas.ts) are a chunk of their own, fetched after the
 * screen is up.
 */
const FORMS = /node_modules[\\/]react-number-format[\\/]|[\\/]web[\\/](forms[\\/](?!checks)|leads[\\/]list[\\/])/;

/** zod: with the forms' schemas (fetched after a screen is up) and the few screens that build a schema as they start. */
const ZOD = /node_modules[\\/]zod[\\/]/;

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

/** Mantine's `useId` is ours (web/components/mantineId.ts), in the app and in the server's drawing alike. */
function reactIds(): Plugin {
  const ours = path.resolve('web/components/mantineId.ts');
  return {
    name: 'react-ids',
    enforce: 'pre',
    resolveId: (source, importer) => (source === './use-id/use-id.mjs' && importer && /@mantine[\\/]hooks[\\/]/.test(importer) ? ours : null),
  };
}

/** The build's output: WEB_DIST lets parallel test runs build into folders of their own. */
const outDir = process.env.WEB_DIST ?? '../dist';

/**
 * The server's drawing of a screen's first frame (web/entry-server.tsx, `vite build --ssr`): one
 * self-contained module beside the app, in a folder the server never serves (server/http/drawn.ts).
 */
const drawing: UserConfig = {
  root: 'web',
  plugins: [react(), reactIds()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: true },
  build: {
    outDir: `${outDir}/.server`,
    emptyOutDir: true,
    sourcemap: false,
    copyPublicDir: false,
    rolldownOptions: { input: path.resolve('web/entry-server.tsx'), output: { codeSplitting: false } },
  },
};

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? drawing : app));

const app: UserConfig = {
  root: 'web',
  plugins: [react(), reactIds(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
    // The server reads it to tell the browser, with the page, which code a dashboard address needs.
    manifest: true,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // On a phone's network each request costs a round trip: a few chunks rather than forty.
        // What the sign-in page needs, the dashboard's libraries, the charts' libraries; each
        // screen's own code stays a chunk of its own, loaded when it is opened.
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 30 },
            // Passkeys' browser code: fetched by the sign-in page's passkey button alone, not with the whole dashboard.
            { name: 'webauthn', test: /[\\/]@simplewebauthn[\\/]/, priority: 25 },
            {
              name: 'dashboard',
              test: (id: string) =>
                /node_modules|[\\/]web[\\/](api|components|shell|session|styles)[\\/]|[\\/]domain[\\/](hours|notice-kinds|routing-terms|rule-defaults)\.ts/.test(
                  id,
                ) &&
                !CHARTS.test(id) &&
                !FORMS.test(id) &&
                !ZOD.test(id),
              priority: 20,
            },
            // Number inputs and the lead lists: the screens with forms; the overview shows none.
            { name: 'forms', test: FORMS, priority: 15 },
            { name: 'zod', test: ZOD, priority: 15 },
            { name: 'charts', test: CHARTS, priority: 10 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
};
