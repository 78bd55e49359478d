// "HostLens: Preview Link…": the page's unfurl card, checks and tags in the panel. The card
// image and favicon are fetched here, within caps, and handed over as data: URIs.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import type { UnfurlResult } from '../../contract/shapes';
import { panelImages } from '../../services/images';
import { loadingBase, runView, type PanelOutcome } from '../panels/runView';
import type { PreviewView } from '../../protocol';
import { urlArgumentOrPrompt } from './urlTarget';

export function registerPreviewLink(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'hostlens.previewLink',
      async (target?: unknown): Promise<PanelOutcome | undefined> => {
        const url = await urlArgumentOrPrompt(target, 'HostLens: Preview Link');
        return url === undefined ? undefined : openPreview(context, deps, url);
      },
    ),
  );
}

export function openPreview(
  context: vscode.ExtensionContext,
  deps: Deps,
  url: string,
): Promise<PanelOutcome> {
  return runView(
    context,
    deps,
    { kind: 'preview', ...loadingBase(url) },
    `HostLens: previewing ${url}`,
    async (signal): Promise<PreviewView> => {
      const data = await deps.services().meta.unfurl({ url }, { signal });
      const image = cardImageUrl(data);
      const wanted = [image, data.icon_url].filter((u): u is string => u !== undefined && u !== '');
      const images = await panelImages(deps.services().meta, wanted, { signal });
      return {
        kind: 'preview',
        ...loadingBase(url),
        status: 'ready',
        data,
        ...(image !== undefined && images[image] ? { image: images[image] } : {}),
        ...(data.icon_url && images[data.icon_url] ? { favicon: images[data.icon_url] } : {}),
      };
    },
  );
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
