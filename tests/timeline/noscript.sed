# The timeline SVG without its script code (tested in the browser
# tests), for golden files that say what the SVG draws and carries.
/^<script><!\[CDATA\[/,/^\]\]><\/script>/d
