/**
 * The web view the add-in runs in, as far as the hosts differ (test/host/profiles.ts): whether `window.open`
 * opens a window, whether a blob link with `download` saves a file, and whether IndexedDB can keep a CryptoKey.
 * Installed in the add-in's frame before its bundles run; what the add-in tried is recorded on the bridge.
 */
import type { HostBridge } from "./hostBridge";

function recordWindowOpen(frame: Window, host: HostBridge): void {
  const open = frame.open.bind(frame);
  frame.open = (url?: string | URL, target?: string, features?: string) => {
    const href = String(url ?? "");
    host.outside.windowOpens.push({ url: href, opened: host.profile.windowOpen });
    // Desktop web views open nothing (Office asks add-ins to use openBrowserWindow there).
    return host.profile.windowOpen ? open(href, target, features) : null;
  };
}

function recordBlobDownloads(frame: Window, host: HostBridge): void {
  const anchor = (frame as unknown as { HTMLAnchorElement: typeof HTMLAnchorElement }).HTMLAnchorElement;
  const click = anchor.prototype.click;
  anchor.prototype.click = function (this: HTMLAnchorElement) {
    if (this.download && this.href.startsWith("blob:")) {
      host.outside.blobDownloads.push({ fileName: this.download, saved: host.profile.blobDownload });
      // WebView2 and WKWebView save nothing for a blob download: the click is lost.
      if (!host.profile.blobDownload) return;
    }
    click.call(this);
  };
}

/**
 * WebKit's IndexedDB does not keep a non-extractable CryptoKey usable: what comes back cannot decrypt. The
 * stand-in stores an empty object in its place, so the failure shows where the add-in reads the key back.
 */
export function breakCryptoKeyStorage(store: typeof IDBObjectStore): void {
  const put = store.prototype.put;
  store.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
    return put.call(this, value instanceof CryptoKey ? {} : value, key);
  };
}

export function installWebView(frame: Window, host: HostBridge): void {
  recordWindowOpen(frame, host);
  recordBlobDownloads(frame, host);
  if (!host.profile.storesCryptoKeys) {
    breakCryptoKeyStorage((frame as unknown as { IDBObjectStore: typeof IDBObjectStore }).IDBObjectStore);
  }
}
