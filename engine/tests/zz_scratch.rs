use engine::map::Map;
#[test]
fn scratch() {
    for e in std::fs::read_dir("../../shared/maps-2016").unwrap() {
        let p = e.unwrap().path();
        let t = std::fs::read_to_string(&p).unwrap();
        match Map::parse(&t) {
            Ok(m) => println!(
                "{:?}: ok {} forts {} roads {} marches seats {:?}",
                p.file_name().unwrap(),
                m.forts.len(),
                m.roads.len(),
                m.marches.len(),
                m.seats
            ),
            Err(e) => println!("{:?}: ERR {e}", p.file_name().unwrap()),
        }
    }
    for t in [
        "",
        "# c\n\n",
        "2 forts:\na 0 0 p 1\nb 1 0 q 1\nc 2 0 neutral 0\n0 roads:\n0 marches:\n",
        "1 forts:\na 0 0 p 1\n1 roads:\na b\n",
    ] {
        println!("{:?}", Map::parse(t));
    }
}
