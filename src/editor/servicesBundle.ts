// What the editor loads on its first look-up, bundled apart as dist/engine.js: the services
// (the embedded engine and the hosted service's client) and the functions that compose
// operations over them. Activation loads only the editor part (dist/extension.js); loadServices.ts
// imports this module when a look-up first needs it. Nothing here runs at load.
export { EmbeddedServices } from '../services/embedded';
export { HttpServices } from '../services/http';
export { checkHostedService } from '../services/hostedCheck';
export { checkSpf, mailSetup } from '../services/mail';
export { panelImages } from '../services/images';
export { compareZoneRecords } from '../services/zone-drift';
export { checkTexts, checkWorkspace } from '../services/check/index';
