const x = ;
