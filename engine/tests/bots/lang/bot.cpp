// Sends half of every garrison above 1 to the first neighbour of each owned fort.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::string me = argv[argc - 1], line;
    std::ios::sync_with_stdio(false);
    while (std::getline(std::cin, line)) {
        struct Fort { std::string name, owner; long garrison; };
        std::vector<Fort> forts;
        std::vector<std::pair<std::string, std::string>> roads;
        long n = std::stol(line);
        for (long i = 0; i < n && std::getline(std::cin, line); i++) {
            std::istringstream in(line);
            Fort f; long x, y;
            in >> f.name >> x >> y >> f.owner >> f.garrison;
            forts.push_back(f);
        }
        std::getline(std::cin, line);
        n = std::stol(line);
        for (long i = 0; i < n && std::getline(std::cin, line); i++) {
            std::istringstream in(line);
            std::string a, b;
            in >> a >> b;
            roads.emplace_back(a, b);
        }
        std::getline(std::cin, line);
        n = std::stol(line);
        for (long i = 0; i < n; i++) std::getline(std::cin, line);
        std::vector<std::string> out;
        for (auto& f : forts) {
            if (f.owner != me || f.garrison < 2) continue;
            for (auto& r : roads) {
                if (r.first == f.name || r.second == f.name) {
                    auto& to = r.first == f.name ? r.second : r.first;
                    out.push_back(f.name + " " + to + " " + std::to_string(f.garrison / 2));
                    break;
                }
            }
        }
        std::cout << out.size() << " commands:\n";
        for (auto& c : out) std::cout << c << "\n";
        std::cout.flush();
    }
}
