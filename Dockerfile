# One image for the server (default command) and the streamer (`npm run streamer`).
# Build: docker build -t portfolio-guard .   Run: see docker-compose.yml and the README.

# 1. Dependencies of every workspace, from the lockfile.
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY config/package.json config/
COPY common/package.json common/
COPY server/package.json server/
COPY streamer/package.json streamer/
COPY client/package.json client/
RUN npm ci --no-audit --no-fund

# 2. The client bundle (client/dist), served by the server.
FROM deps AS build
COPY . .
RUN npm run build -w client

# 3. Runtime: sources run through tsx, the built client, no tests or client sources.
#    node_modules keeps dev dependencies because tsx (the TypeScript loader) is one.
FROM node:22-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json /app/tsconfig.base.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/config ./config
COPY --from=build /app/common ./common
COPY --from=build /app/server ./server
COPY --from=build /app/streamer ./streamer
COPY --from=build /app/client/package.json ./client/package.json
COPY --from=build /app/client/dist ./client/dist
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "server/src/main.ts"]
