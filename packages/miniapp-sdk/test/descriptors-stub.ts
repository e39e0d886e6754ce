// Stands in for the plugin's `lineup:miniapp-descriptors` when a unit test imports page.ts directly.
export default { appScope: 'notes', descriptors: [] };
