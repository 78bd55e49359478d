// "HostLens: Show Icons…": the icons a page links, with their real sizes, in the panel. The
// images come through the meta service (the hosted one fetches them with the remote backend).
import type * as vscode from 'vscode';
import type { Deps } from '../deps';
import { registerPanelCommand } from '../panels/panelCommand';
import { loadingBase } from '../panels/viewStates';
import type { IconsView } from '../../protocol';
import { loadServices } from '../loadServices';

export function registerShowIcons(context: vscode.ExtensionContext, deps: Deps): void {
  registerPanelCommand(context, deps, {
    id: 'hostlens.showIcons',
    target: 'url',
    title: 'HostLens: Show Icons',
    progress: (url) => `HostLens: finding the icons of ${url}`,
    loading: (url) => ({ kind: 'icons', ...loadingBase(url), images: {} }),
    load: async (url, signal): Promise<IconsView> => {
      const meta = deps.services().meta;
      const data = await meta.icons({ url }, { signal });
      // An icon listed for its HTTP error or its size is not asked for again.
      const images = await (
        await loadServices()
      ).panelImages(
        meta,
        data.icons.filter((i) => i.reason === undefined).map((i) => i.url),
        { signal },
      );
      return { kind: 'icons', ...loadingBase(url), status: 'ready', data, images };
    },
  });
}
