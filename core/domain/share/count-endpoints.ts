// Its own module so the site configuration (in every page's JavaScript) does not bring the share networks along (issue 18).

/**
 * The count endpoints of the networks that publish one (each answers a number wrapped in its own callback or JSON)
 * and how to read it. The server asks them (never the browser), so no third-party script runs in the page.
 */
export const COUNT_ENDPOINTS: Record<string, string> = {
  pinterest: "https://widgets.pinterest.com/v1/urls/count.json?source=6&url={url}",
  tumblr: "https://api.tumblr.com/v2/share/stats?url={url}",
  vk: "https://vk.com/share.php?act=count&index=1&url={url}",
  odnoklassniki: "https://connect.ok.ru/dk?st.cmd=extLike&uid=odklcnt0&ref={url}",
};
