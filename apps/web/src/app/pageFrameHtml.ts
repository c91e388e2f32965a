import { isUnderPath } from '../lib/isUnderPath.ts';
import { PAGE_FRAME_ID } from '../lib/pageFrame.ts';
import { SIDEBAR_LINKS } from './sidebarLinks.ts';

// What AppLayout, Sidebar and PageHeader draw, in Mantine's measures with this app's theme: the e2e
// test 'the network page's frame…' compares every box and colour with the real page's.
const STYLE = `#${PAGE_FRAME_ID}{position:fixed;inset:0;z-index:1000;background:#fff;color:#000;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif,"Apple Color Emoji","Segoe UI Emoji";font-size:16px;line-height:1.55;-webkit-font-smoothing:antialiased}
#${PAGE_FRAME_ID}>div{position:absolute;top:0;bottom:0;left:0;width:220px;box-sizing:border-box;padding:16px;border-right:1px solid #dee2e6;background:#fff}
#${PAGE_FRAME_ID} p{margin:0 0 20px;font-size:20px;line-height:33px;font-weight:700}
#${PAGE_FRAME_ID} span{display:block;padding:8px 12px;font-size:14px;line-height:24.8px}
#${PAGE_FRAME_ID} span[data-active]{background:#d0ebff;color:#134a87}
#${PAGE_FRAME_ID} h1{position:absolute;top:16px;left:236px;right:16px;margin:0;font-size:26px;line-height:35.1px;font-weight:700}`;

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * A first page's frame as static HTML: the sidebar and the page's heading, painted as soon as the
 * page and its stylesheet arrive rather than after the app's scripts have run and signed the member in
 * (issue 26: the heading of /network, its largest paint, waited 2 s on them). It is not a landmark and
 * holds nothing to operate: the app's own loading screen, under it, tells assistive technologies.
 */
export function pageFrame(pagePath: string, title: string): { head: string; body: string } {
  const links = SIDEBAR_LINKS.map(
    ({ label, activeUnder }) =>
      `<span${isUnderPath(pagePath, activeUnder) ? ' data-active' : ''}>${escapeHtml(label)}</span>`,
  ).join('');
  return {
    head: `<style>${STYLE}</style>`,
    body: `<div id="${PAGE_FRAME_ID}" aria-hidden="true"><div><p>Warmpath</p>${links}</div><h1>${escapeHtml(title)}</h1></div>`,
  };
}
