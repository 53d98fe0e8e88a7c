# <<- strips leading tabs.
if true; then
	cat <<-END
	indented with tabs
		two tabs
	END
fi
