/** Port of `vite preview` (the quick start) and of the end-to-end tests; `PORT` overrides it. */
export const PREVIEW_PORT = Number(process.env.PORT ?? 4173);
