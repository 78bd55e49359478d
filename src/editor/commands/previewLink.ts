// "HostLens: Preview Link…": the page's unfurl card, checks and tags in the panel. The card
// image and favicon come through the meta service, within caps, as data: URIs.
import type * as vscode from 'vscode';
import type { Deps } from '../deps';
import { registerPanelCommand } from '../panels/panelCommand';
import type { UnfurlResult } from '../../contract/shapes';
import { loadServices } from '../loadServices';
import { failedPreview, loadingBase } from '../panels/viewStates';
import type { PreviewView } from '../../protocol';
import { toLookupError } from '../../contract/errors';

export function registerPreviewLink(context: vscode.ExtensionContext, deps: Deps): void {
  registerPanelCommand(context, deps, {
    id: 'hostlens.previewLink',
    target: 'url',
    title: 'HostLens: Preview Link',
    progress: (url) => `HostLens: previewing ${url}`,
    loading: (url) => ({ kind: 'preview', ...loadingBase(url) }),
    load: async (url, signal): Promise<PreviewView> => {
      const meta = deps.services().meta;
      // An https URL's certificate is read beside the page; its failure is the section's own,
      // and it stays when the page fetch fails (often the certificate's doing).
      const tls = certificateOf(deps, url, signal);
      try {
        const data = await meta.unfurl({ url }, { signal });
        const image = cardImageUrl(data);
        const wanted = [image, data.icon_url].filter(
          (u): u is string => u !== undefined && u !== '',
        );
        const images = await (await loadServices()).panelImages(meta, wanted, { signal });
        return {
          kind: 'preview',
          ...loadingBase(url),
          status: 'ready',
          data,
          ...(image !== undefined && images[image] ? { image: images[image] } : {}),
          ...(data.icon_url && images[data.icon_url] ? { favicon: images[data.icon_url] } : {}),
          ...(tls ? { tls: await tls } : {}),
        };
      } catch (err) {
        return failedPreview(url, err, await tls);
      }
    },
  });
}

/** The image a chat or social site would show: og:image first, then twitter:image. */
export function cardImageUrl(data: UnfurlResult): string | undefined {
  const og = data.open_graph['og:image'];
  const candidate = (Array.isArray(og) ? og[0]?.url : undefined) ?? data.twitter?.['twitter:image'];
  if (candidate === undefined || candidate.trim() === '') return undefined;
  try {
    return new URL(candidate, data.resolved_url || undefined).href;
  } catch {
    return undefined;
  }
}

/** The TLS look-up of an https URL's host and port; undefined for any other URL. */
function certificateOf(
  deps: Deps,
  url: string,
  signal: AbortSignal,
): Promise<NonNullable<PreviewView['tls']>> | undefined {
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:') return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const server = deps.settings().dnsServer;
  return deps
    .services()
    .domain.tls(
      { host, ...(parsed.port ? { port: parsed.port } : {}), ...(server ? { server } : {}) },
      { signal },
    )
    .catch((err: unknown) => {
      const e = toLookupError(err);
      return { error: { code: e.code, message: e.detail } };
    });
}
