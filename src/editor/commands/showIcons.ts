// "HostLens: Show Icons…": a site's icons with their real sizes; the images are fetched here
// within caps and handed to the panel as data: URIs.
import * as vscode from 'vscode';
import type { Deps } from '../deps';
import { panelImages } from '../../services/images';
import { loadingBase, runView, type PanelOutcome } from '../panels/runView';
import type { IconsView } from '../../protocol';
import { urlArgumentOrPrompt } from './urlTarget';

export function registerShowIcons(context: vscode.ExtensionContext, deps: Deps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'hostlens.showIcons',
      async (target?: unknown): Promise<PanelOutcome | undefined> => {
        const url = await urlArgumentOrPrompt(target, 'HostLens: Show Icons');
        return url === undefined ? undefined : openIcons(context, deps, url);
      },
    ),
  );
}

export function openIcons(
  context: vscode.ExtensionContext,
  deps: Deps,
  url: string,
): Promise<PanelOutcome> {
  return runView(
    context,
    deps,
    { kind: 'icons', ...loadingBase(url), images: {} },
    `HostLens: finding the icons of ${url}`,
    async (signal): Promise<IconsView> => {
      const data = await deps.services().meta.icons({ url }, { signal });
      const images = await panelImages(
        deps.services().meta,
        data.icons.map((i) => i.url),
        { signal },
      );
      return { kind: 'icons', ...loadingBase(url), status: 'ready', data, images };
    },
  );
}
