# What each JS file imports.
grep -rho "from '[^']*'" web/src | sed "s/from '//; s/'$//" | sort | uniq -c | sort -k1,1nr -k2
