/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The Go binary embeds frontend/dist with //go:embed; git keeps only dist/.gitkeep so
// `go build` works on a fresh clone. Vite empties dist/ on every build, so put it back.
function keepGitkeep(): Plugin {
  return {
    name: 'fixthis-keep-gitkeep',
    apply: 'build',
    closeBundle() {
      const dist = resolve(fileURLToPath(new URL('.', import.meta.url)), 'dist');
      mkdirSync(dist, { recursive: true });
      writeFileSync(resolve(dist, '.gitkeep'), '');
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [svelte(), keepGitkeep()],
  // H.264 fixtures for the software decoder's unit tests (imported with ?inline).
  assetsInclude: ['**/*.h264'],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
  },
  server: {
    // `wails dev` or a local `fixthis serve` on 8787 answers /api.
    proxy: { '/api': process.env.FIXTHIS_API ?? 'http://127.0.0.1:8787' },
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
