"""The static results site under ``results/site/`` (:func:`imlbench.site.build.build_site`)."""
