/** The virtual module the Vite plugin gives a page it builds: the descriptors it computed in Node at build time. */
declare module 'lineup:miniapp-descriptors' {
  const precomputed: {
    readonly appScope: string;
    readonly descriptors: readonly import('@lineup/shared/protocol').AgentToolDescriptor[];
  };
  export default precomputed;
}
