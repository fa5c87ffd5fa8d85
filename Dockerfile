# One image for the server (default command) and the streamer (`node dist/streamer.js`).
# Build: docker build -t portfolio-guard .   Run: see docker-compose.yml and the README.
# test/infra/image-build.test.ts follows these steps in a scratch folder (no Docker daemon).

# 1. The lockfile and every workspace's package.json: what npm ci reads.
FROM node:22-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY config/package.json config/
COPY common/package.json common/
COPY server/package.json server/
COPY streamer/package.json streamer/
COPY client/package.json client/

# 2. Every dependency, dev ones included: the build needs esbuild and Vite.
FROM manifests AS deps
RUN npm ci --no-audit --no-fund

# 3. The client bundle (client/dist) and the compiled server, streamer and CLIs (dist/).
FROM deps AS build
COPY . .
RUN npm run build

# 4. Runtime dependencies only: the `dependencies` of the workspaces the compiled code is
#    built from. No TypeScript, no tsx, no Vite, no React (the client is already bundled).
FROM manifests AS runtime-deps
RUN npm ci --omit=dev --no-audit --no-fund -w config -w common -w server -w streamer

# 5. Runtime: compiled JavaScript, the built client, and the data files the code reads where
#    the sources keep them (migrations, the symbol snapshot).
FROM node:22-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/dist ./dist
COPY --from=build /app/server/snapshot ./server/snapshot
COPY --from=build /app/server/src/db/migrations ./server/src/db/migrations
COPY --from=build /app/client/dist ./client/dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=64", "--enable-source-maps", "dist/server.js"]
