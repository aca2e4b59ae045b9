compiled output
