/** Node's flags for the server process (scripts/server-node-flags.mjs). */
export declare const SERVER_NODE_FLAGS: readonly string[];
