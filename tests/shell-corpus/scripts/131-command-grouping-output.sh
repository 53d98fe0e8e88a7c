# Command groups share one output stream.
{ echo "# files"; ls docs; echo "# end"; } | nl -ba
