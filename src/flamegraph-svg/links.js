/*
 * links: frames made links by --nameattr (scriptdata.c embeds this file only
 * with --nameattr): a click follows the link, to its target (_top by
 * default); Ctrl-click zooms, as a click elsewhere.  flame.js's click
 * calls link(g, f, e), which says whether it acted.
 */
link = (g, f, e) => {
	if (!f.attr || !f.attr.href) return false;
	if (e.ctrlKey || e.metaKey) zoom(g, f);
	else window.open(f.attr.href, f.attr.target);
	return true;
};
